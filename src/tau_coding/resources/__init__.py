"""Project and user resources: context files, system prompt files, skills, prompt templates.

Everything here reads files only at the edges and turns every problem into a ``Diagnostic``;
nothing raises for a bad file. The app calls ``tau_coding.resources.loader.load_resources``.
"""
