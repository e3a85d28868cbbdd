"""The words the real-recognizer tests speak to vosk's small Korean model (conftest.py's `clips`)."""

# Words this model hears reliably from espeak-ng (measured), three of them Korean first names.
WORDS = ["민수", "영희", "지수", "정지", "노래", "왼쪽", "오른쪽", "음악"]
LEAD_S = 0.6  # silence before the word: paplay starts and the ear's guard passes before speech
