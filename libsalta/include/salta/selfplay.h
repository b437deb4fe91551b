// Self-play: legal games by simple players, written as records. The games
// are the same for the same seed on every platform (the random numbers are
// our own, not the standard library's distributions).
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "salta/game.h"
#include "salta/position.h"
#include "salta/record.h"
#include "salta/replay.h"
#include "salta/variant.h"

namespace salta {

enum class Player {
  kRandom,  // any legal move, uniformly
  kGreedy,  // the move that brings the moved piece nearest its target; ties at random
};
// "random" or "greedy"; the error lists them.
absl::StatusOr<Player> ParsePlayer(absl::string_view name);
absl::string_view PlayerName(Player p);

struct SelfPlayOptions {
  Player white = Player::kGreedy;
  Player black = Player::kGreedy;
  // Stop after this many plies if the game is not over (the record ends
  // unfinished, "*"); 0: play until the game is over. Never more than a
  // record holds (kMaxRecordMoves, record.h), so every game reads back.
  int max_plies = 1000;
  // The greedy player's chance, in percent, of playing a random move instead.
  int greedy_noise_percent = 10;
  // Count the score of a finished game (a Score tag; the result of a game
  // over by the move limit under limit-scoring=moves needs it).
  bool score = true;
  // How that count is made and bounded (replay.h): by nodes, so that the
  // same seed gives the same games on any machine.
  FinishOptions count = ScoreCountOptions();
};

struct SelfPlayGame {
  GameRecord record;  // tags Event Round White Black Result, Rules Board Position, Score
  int plies = 0;
  GameStatus status;  // of the final position
};

// Plays one game from `start` with the players of `options`, using the
// random stream of (seed, game). `round` names the game in its Round tag.
SelfPlayGame PlayGame(const Position& start, const SelfPlayOptions& options, uint64_t seed,
                      uint64_t game);

}  // namespace salta
