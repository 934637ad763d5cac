"""``python -m streams worker -l info --without-web``: the Faust command line on
:data:`streams.app.app`."""

from streams.app import app

app.main()
