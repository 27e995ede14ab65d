"""Context accounting, compaction and branch summaries.

Pure planners and serialisers (``context_usage``, ``planner``, ``serialize``, ``file_ops``,
``prompts``, ``branch``) decide what to summarise and how it reads; ``summarizer`` is the one
place that calls a model.
"""
