"""The tournament as it runs: its state, the one pure transition
(:func:`tracker.engine.transition.apply`), what a finished round derives (evaluation,
prospects, secured norms) and the alerts it gives."""
