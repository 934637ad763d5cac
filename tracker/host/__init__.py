"""The embedded host the command line, the follower and the publisher share: input events run
through the core without a broker."""
