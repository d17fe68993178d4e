#include "cli_tuning.hpp"

#include <bcast/bcast.h>

#include <stdexcept>
#include <vector>

namespace bcast_cli {

using namespace bcast::tuning;

TuningState read_tuning_state() {
    TuningState s;
    s.json.assign(bcast_tuning_describe(nullptr, 0) + 1, '\0');
    s.json.resize(bcast_tuning_describe(&s.json[0], s.json.size()));
    TuningText text;
    std::string why = read_tuning_text(s.json, Tuning{}, text);
    std::vector<FlatValue> members;
    if (why.empty()) why = flatten(s.json, members);
    if (why.empty()) why = read_choices(members, member_path({"info", "defaults"}), Tuning{}, s.defaults);
    if (!why.empty()) throw std::runtime_error("bcast_tuning_describe's text does not read: " + why);
    s.key = text.key;
    s.in_force = text.tuning;
    const auto text_of = [&](const char* key) {
        const FlatValue* v = find_member(members, member_path({"info", key}));
        return v != nullptr && v->is_string ? v->text : std::string();
    };
    s.source = text_of("source");
    s.ignored = text_of("ignored");
    s.builtin = text_of("builtin");
    if (const FlatValue* v = find_member(members, member_path({"info", "load_ns"}))) s.load_ns = v->integer;
    return s;
}

}  // namespace bcast_cli
