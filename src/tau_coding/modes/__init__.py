"""Ways to run Tau: print (text/json) now; rpc and the TUI later."""
