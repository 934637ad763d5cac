"""One player's record judged against one edition's rules: the norm search
(:mod:`~tracker.norms.search`, with its parts beside it: values, games, requirements,
opponent_mix, federations, explain), the Annex tables generated from the rules
(:mod:`~tracker.norms.tables`) and live ratings (:mod:`~tracker.norms.live_rating`)."""
