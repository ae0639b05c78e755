"""pbem: a game-master tool for postal Love Letter."""
