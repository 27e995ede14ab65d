"""The built-in task list: the ``todo`` tool, its state on the session's path, and its panel."""
