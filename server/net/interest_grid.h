// A coarse grid over a snapshot round's wire states, made once a round for every client: a client
// with an interest radius visits the few cells its disc touches instead of every agent in the world.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "proto/snapshot_codec.h"
#include "world/spatial_grid.h"

namespace steerd::net {

class InterestGrid {
 public:
  // The cells are at least `radius` wide (a disc touches at most 3 x 3), wider when the states
  // spread so far that there would be more than kMaxCellsPerSide a side.
  void build(std::span<const wire::EntityState> states, float radius);

  // Appends to `out`, in id order (the states' order), every state within `radius` (the one the
  // grid was built for, or less) of (cx, cy): what scan() finds. States other than the grid's (a
  // different count) and a centre that is not finite are scanned.
  void gather(std::span<const wire::EntityState> states, float cx, float cy, float radius,
              std::vector<std::uint64_t>& marks, std::vector<wire::EntityState>& out) const;

  // The plain way: every state tested.
  static void scan(std::span<const wire::EntityState> states, float cx, float cy, float radius,
                   std::vector<wire::EntityState>& out);

  static constexpr int kMaxCellsPerSide = 256;

 private:
  CellAxis axisX_, axisY_;  // the world grid's clamped cell of a coordinate
  int cols_ = 0, rows_ = 0;
  std::vector<std::uint32_t> cellStart_;  // cols_ * rows_ + 1: where each cell's indices begin
  std::vector<std::uint32_t> indices_;    // state indices by cell, ascending within a cell
};

}  // namespace steerd::net
