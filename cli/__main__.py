"""``python -m cli``: the ``tracker`` command."""

from cli.main import main

raise SystemExit(main())
