"""The card-driven AI opponent (spec §11, T14-T16): it acts on its turns through the system command
``TakeAiTurn``, and every choice it makes is recorded in events with the card, the branch and why."""
