"""``python -m streams worker -l info --without-web``: the Faust command line on
:data:`streams.faust.app.app`."""

from streams.faust.app import app

app.main()
