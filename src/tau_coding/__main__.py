from tau_coding.cli import main

raise SystemExit(main())
