"""Voice in: ears (microphone, files, keyboard, scripts) and French text -> commands."""
