"""The self-contained demo: a scripted local model server and an agent that talks to it."""
