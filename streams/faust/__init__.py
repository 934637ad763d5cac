"""Everything that touches Faust: the app's wiring, the agent, the watchdog and the module-level
app. The rest of :mod:`streams` (processor, records, kafka, feed, webhook, web) works without
it."""
