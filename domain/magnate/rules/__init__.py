"""One module per part of the round (spec §3-§10); each holds a rule's decide part and its evolve part."""
