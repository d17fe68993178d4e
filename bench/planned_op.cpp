#include "planned_op.hpp"

#include <utility>
#include <vector>

namespace bench {

PlannedOp::PlannedOp(PlannedOp&& other) noexcept : op_(std::exchange(other.op_, nullptr)) {}

PlannedOp& PlannedOp::operator=(PlannedOp&& other) noexcept {
    if (this != &other) {
        bcast_op_destroy(op_);
        op_ = std::exchange(other.op_, nullptr);
    }
    return *this;
}

std::string PlannedOp::plan(const Case& c) {
    bcast_op_destroy(std::exchange(op_, nullptr));
    bcast_status st = bcast_op_create(BCAST_OP_ADD, c.dtype, &op_);
    if (st == BCAST_OK) st = bcast_op_set_param(op_, BCAST_PARAM_RULE, c.rule);
    if (st == BCAST_OK) st = bcast_op_set_param(op_, BCAST_PARAM_AXIS, c.axis);
    if (st == BCAST_OK) st = replan(c);
    return st == BCAST_OK ? "" : api_error(st);
}

bcast_status PlannedOp::replan(const Case& c) {
    const std::size_t ranks[2] = {c.a.size(), c.b.size()};
    const std::int64_t* dims[2] = {c.a.data(), c.b.data()};
    return bcast_op_plan(op_, 2, ranks, dims, nullptr, nullptr);
}

std::string PlannedOp::described(const char* key) const {
    std::vector<char> json(bcast_op_describe(op_, nullptr, 0) + 1);
    bcast_op_describe(op_, json.data(), json.size());
    const std::string text(json.data());
    const std::string needle = std::string("\"") + key + "\":\"";
    const std::size_t at = text.find(needle);
    if (at == std::string::npos) return "?";
    const std::size_t begin = at + needle.size();
    return text.substr(begin, text.find('"', begin) - begin);
}

std::string api_error(bcast_status status) {
    return std::string(bcast_status_string(status)) + ": " + bcast_last_error();
}

}  // namespace bench
