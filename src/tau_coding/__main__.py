from tau_coding.app.cli import main

raise SystemExit(main())
