// What the opaque handles of the C API hold.
#pragma once

#include "exec/pool.hpp"
#include "op/operator.hpp"

struct bcast_op {
    bcast::Operator impl;
};

struct bcast_pool {
    bcast::exec::Pool impl;
};
