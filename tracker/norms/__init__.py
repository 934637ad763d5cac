"""One player's record judged against one edition's rules: the norm search
(:mod:`~tracker.norms.search`), the Annex tables generated from the rules
(:mod:`~tracker.norms.tables`) and live ratings (:mod:`~tracker.norms.live_rating`)."""
