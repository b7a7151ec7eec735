// The contacts phase of the tick: bodies that still overlap after every agent has moved are pushed apart,
// and lose the velocity into each other (the collision passes of DetourCrowd and of
// position-based crowds). The steering
// push of the update phase works from state[n] and one tick late, so in a jam where many bodies press the
// same way overlaps build up; a few passes over state[n+1] keep them within a few percent of the
// radius. Each pass reads one copy of the positions and writes another (Jacobi), so the result is
// the same for any thread count. Connected players are never moved: an NPC touching one takes
// the whole correction.
#pragma once

#include <cstdint>
#include <vector>

#include "world/agent_update.h"
#include "world/thread_pool.h"

namespace steerd {

// Runs up to `passes` passes on `next` (state[n+1], in the same slot order as ctx.in, whose
// positions ctx.grid was built from), stopping early when nothing overlaps. `scratchX/Y` are
// reused between ticks. ORs kContactObstacle into contactFlags for bodies pushed into an obstacle
// or wall and back out of it.
void projectContacts(const StepContext& ctx, int passes, AgentColumns& next, std::vector<float>& scratchX,
                     std::vector<float>& scratchY, ThreadPool& pool, std::size_t chunkSize,
                     std::uint8_t* contactFlags);

}  // namespace steerd
