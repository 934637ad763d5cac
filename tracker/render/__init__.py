"""What people read: the text story of a replay, the arbiter's breakdown, the web views and
the norm certificate (IT1) as JSON, HTML and PDF."""
