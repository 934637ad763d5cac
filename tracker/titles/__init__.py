"""Title applications across events: is a player's application for GM, IM, WGM or WIM
complete, on which norms and which rating, and if not, what is missing (1.5 of 2024, 1.50-1.53
of 2009). Pure: facts in (:mod:`~tracker.titles.facts`, made from alerts and held norms by
:mod:`~tracker.titles.sources`), judgements and alerts out (:mod:`~tracker.titles.judgement`).
"""
