"""The module-level Faust app, configured from ``TRACKER_*`` environment variables:

TRACKER_BROKER=kafka://127.0.0.1:9092 faust -A streams.faust.app worker -l info --without-web
"""

from streams.faust.wiring import build

wiring = build()
app = wiring.app

if __name__ == "__main__":
    app.main()
