"""The ``tracker`` command: the composition root. It wires the core (:mod:`tracker`), the
follower (:mod:`follow`) and the Kafka shell (:mod:`streams`); the follow and streams commands
arrive as plugins (entry points of the group ``tracker.commands``). Nothing imports it."""
