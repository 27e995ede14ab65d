"""tau_agent: the reusable agent core (vocabulary, loop, harness).

Import what you need from its modules (``tau_agent.messages``, ``tau_agent.loop``,
``tau_agent.harness`` ...); this package imports nothing on its own so that importing one
piece stays cheap.
"""
