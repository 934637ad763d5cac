"""What the tests share: builders of records and events, the oracles (brute force), the
running worker of the integration tests, helpers for the follower's HTTP server and the
browser. Test modules import from here, never from each other."""
