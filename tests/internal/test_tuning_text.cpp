// The tuning file's text (tuning/tuning_text.hpp): hand-written texts read
// to the values they spell, everything else refused with a reason.
#include <catch2/catch.hpp>

#include "tuning/tuning_text.hpp"

#include <string>

namespace {

using namespace bcast::tuning;

Tuning some_defaults() {
    Tuning t;
    t.rows = Prefetch{PrefetchHint::nta, 4096};
    t.chain = Prefetch{PrefetchHint::nta, 4096};
    t.nt_min_bytes_1t = 1310720;
    t.nt_min_bytes_nt = 16777216;
    t.nt_min_bytes_1t_one_input = 2097152;
    t.nt_min_bytes_nt_one_input = 33554432;
    t.task_min_bytes = 262144;
    return t;
}

const char* const kKey = R"("key":{"vendor":"AuthenticAMD","family":26,"model":2,"isa":"avx512"})";

std::string text_with(const std::string& choices, const std::string& head = R"("format":1,"kernel_gen":1)") {
    return "{" + head + "," + kKey + R"(,"choices":{)" + choices + "}}";
}

std::string why_not(const std::string& text) {
    TuningText out;
    return read_tuning_text(text, some_defaults(), out);
}

}  // namespace

TEST_CASE("tuning text: the values written, the defaults elsewhere", "[tuning]") {
    TuningText out;
    const std::string text = R"( {"format": 1, "kernel_gen": 1,
        "key": {"vendor": "AuthenticAMD", "family": 26, "model": 2, "isa": "avx512"},
        "choices": {"prefetch.rows.hint": "t1", "prefetch.rows.distance": 2048,
                    "nt_min_bytes.1t": 8388608},
        "info": {"note": "a \"quoted\" \u00e9 word", "rounds": [1, 2, {"x": null}], "ok": true}} )";
    REQUIRE(read_tuning_text(text, some_defaults(), out) == "");
    CHECK(out.key == HostKey{"AuthenticAMD", 26, 2, "avx512"});
    CHECK(out.tuning.rows.hint == PrefetchHint::t1);
    CHECK(out.tuning.rows.distance == 2048);
    CHECK(out.tuning.nt_min_bytes_1t == 8388608);
    // Its one_input value, not in the text, follows it.
    CHECK(out.tuning.nt_min_bytes_1t_one_input == 8388608);
    // Not in the text: the defaults.
    CHECK(out.tuning.chain.hint == PrefetchHint::nta);
    CHECK(out.tuning.chain.distance == 4096);
    CHECK(out.tuning.nt_min_bytes_nt == 16777216);
    CHECK(out.tuning.nt_min_bytes_nt_one_input == 33554432);
    // Both of a pair in the text: each its own.
    REQUIRE(read_tuning_text(text_with(R"("nt_min_bytes.nt":8192,"nt_min_bytes.nt.one_input":65536)"),
                             some_defaults(), out) == "");
    CHECK(out.tuning.nt_min_bytes_nt == 8192);
    CHECK(out.tuning.nt_min_bytes_nt_one_input == 65536);
    CHECK(out.tuning.nt_min_bytes_1t_one_input == 2097152);
    CHECK(out.tuning.task_min_bytes == 262144);
}

TEST_CASE("tuning text: written and read back", "[tuning]") {
    Tuning t = some_defaults();
    t.rows = Prefetch{PrefetchHint::none, 64};
    t.chain = Prefetch{PrefetchHint::t0, 65536};
    t.task_min_bytes = 4096;
    const HostKey key{"Genuine\"Intel\\", 6, 143, "avx2"};
    TuningText out;
    REQUIRE(read_tuning_text(write_tuning_text(key, t, R"("by":"test")"), Tuning{}, out) == "");
    CHECK(out.key == key);
    CHECK(out.tuning == t);
}

TEST_CASE("tuning text: bytes of no UTF-8 character are quoted as valid JSON and read back", "[tuning]") {
    // A path or a key may hold any bytes; JSON text is UTF-8. Well-formed
    // characters pass as they are, other bytes become U+DC80..U+DCFF.
    CHECK(json_quote("a\xff\"b") == "\"a\\udcff\\\"b\"");
    CHECK(json_quote("\xc3\xa9") == "\"\xc3\xa9\"");                  // U+00E9
    CHECK(json_quote("\xc3") == "\"\\udcc3\"");                        // cut short
    CHECK(json_quote("\xc0\xaf") == "\"\\udcc0\\udcaf\"");            // overlong '/'
    CHECK(json_quote("\xed\xa0\x80") == "\"\\udced\\udca0\\udc80\"");  // a surrogate
    CHECK(json_quote("\xf4\x90\x80\x80") == "\"\\udcf4\\udc90\\udc80\\udc80\"");  // past U+10FFFF
    CHECK(json_quote("\xf0\x9f\x98\x80") == "\"\xf0\x9f\x98\x80\"");  // U+1F600
    const HostKey key{"Vendor\xff\x80 \xe2\x82\xac", 6, 143, "avx2"};
    TuningText out;
    REQUIRE(read_tuning_text(write_tuning_text(key, some_defaults(), ""), Tuning{}, out) == "");
    CHECK(out.key == key);
    // Other surrogates stay refused.
    const std::string lone = R"({"format":1,"kernel_gen":1,"key":{"vendor":"\ud800","family":26,"model":2,)"
                             R"("isa":"avx512"},"choices":{}})";
    CHECK(why_not(lone).find("surrogate") != std::string::npos);
}

TEST_CASE("tuning text: other formats and generations are refused", "[tuning]") {
    CHECK(why_not(text_with("", R"("format":2,"kernel_gen":1)")) == "format 2, this library reads 1");
    CHECK(why_not(text_with("", R"("format":1,"kernel_gen":7)")) == "kernel_gen 7, these kernels are 1");
    CHECK(why_not(text_with("", R"("kernel_gen":1)")) == "no integer \"format\"");
    CHECK(why_not(text_with("", R"("format":"1","kernel_gen":1)")) == "no integer \"format\"");
    CHECK(why_not(R"({"format":1,"kernel_gen":1,"choices":{}})") ==
          "no complete \"key\" (vendor, family, model, isa)");
}

TEST_CASE("tuning text: choices out of range or of the wrong type are refused", "[tuning]") {
    CHECK(why_not(text_with(R"("prefetch.rows.distance":63)")) ==
          "prefetch.rows.distance is not an integer in [64, 65536]");
    CHECK(why_not(text_with(R"("prefetch.chain.distance":65537)")) ==
          "prefetch.chain.distance is not an integer in [64, 65536]");
    CHECK(why_not(text_with(R"("task_min_bytes":-4096)")) ==
          "task_min_bytes is not an integer in [4096, 67108864]");
    CHECK(why_not(text_with(R"("nt_min_bytes.nt":"big")")) ==
          "nt_min_bytes.nt is not an integer in [4096, 1099511627776]");
    CHECK(why_not(text_with(R"("prefetch.chain.hint":"t3")")) ==
          "prefetch.chain.hint is not one of none, nta, t2, t1, t0");
    CHECK(why_not(text_with(R"("prefetch.rows.hint":1)")) ==
          "prefetch.rows.hint is not one of none, nta, t2, t1, t0");
    // Unknown choices are ignored (a newer bcast tune may write more).
    CHECK(why_not(text_with(R"("chain_block":512)")) == "");
}

TEST_CASE("tuning text: what is not the JSON subset is refused", "[tuning]") {
    const std::string good = text_with(R"("task_min_bytes":65536)");
    REQUIRE(why_not(good) == "");
    // Every proper prefix is truncated text.
    for (std::size_t n = 0; n < good.size(); ++n) {
        INFO(good.substr(0, n));
        CHECK(why_not(good.substr(0, n)).rfind("not a tuning text: ", 0) == 0);
    }
    CHECK(why_not(good + "x") == "not a tuning text: text after the object at byte " +
                                     std::to_string(good.size()));
    CHECK(why_not("[1]") == "not a tuning text: expected '{' at byte 0");
    CHECK(why_not(text_with(R"("task_min_bytes":65536.0)")).find("not an integer") != std::string::npos);
    CHECK(why_not(text_with(R"("task_min_bytes":1e5)")).find("not an integer") != std::string::npos);
    CHECK(why_not(text_with(R"("task_min_bytes":065536)")).find("leading zero") != std::string::npos);
    CHECK(why_not(text_with(R"("task_min_bytes":99999999999999999999)")).find("integer out of range") !=
          std::string::npos);
    CHECK(why_not(text_with(R"("a":"\ud800")")).find("surrogate") != std::string::npos);
    CHECK(why_not(text_with("\"a\":\"line\nbreak\"")).find("control character") != std::string::npos);
    std::string deep = "{\"format\":1,\"x\":";
    for (int i = 0; i < 20; ++i) deep += "[";
    CHECK(why_not(deep).find("nested too deep") != std::string::npos);
    CHECK(why_not(std::string(kMaxTextBytes + 1, ' ')) ==
          "not a tuning text: larger than 65536 bytes");
}

TEST_CASE("tuning text: a repeated member's last value wins", "[tuning]") {
    TuningText out;
    REQUIRE(read_tuning_text(text_with(R"("task_min_bytes":8192,"task_min_bytes":16384)"),
                             some_defaults(), out) == "");
    CHECK(out.tuning.task_min_bytes == 16384);
}

TEST_CASE("tuning text: members are found by their keys, not by dotted names", "[tuning]") {
    const std::string head = R"({"format":1,"kernel_gen":1,)" + std::string(kKey);
    TuningText out;
    // A choice is a key of "choices": not a top-level "choices.x", nor the
    // same name spelled as nested objects (which a choice given as an object is).
    REQUIRE(read_tuning_text(head + R"(,"choices.task_min_bytes":8192})", some_defaults(), out) == "");
    CHECK(out.tuning.task_min_bytes == some_defaults().task_min_bytes);
    CHECK(why_not(text_with(R"("prefetch":{"rows":{"hint":"t0"}})")) == "");
    REQUIRE(read_tuning_text(text_with(R"("prefetch":{"rows":{"hint":"t0"}})"), some_defaults(), out) == "");
    CHECK(out.tuning.rows.hint == some_defaults().rows.hint);
    CHECK(why_not(text_with(R"("task_min_bytes":{"x":8192})")) ==
          "task_min_bytes is not an integer in [4096, 67108864]");
    // An object given again replaces the earlier one and all it held.
    REQUIRE(read_tuning_text(head + R"(,"choices":{"task_min_bytes":8192},"choices":{}})", some_defaults(),
                             out) == "");
    CHECK(out.tuning.task_min_bytes == some_defaults().task_min_bytes);
    CHECK(why_not(head + R"(,"key":5})") == "no complete \"key\" (vendor, family, model, isa)");
    CHECK(why_not(head + R"(,"choices":5})") == "\"choices\" is not an object");
    // The one character a path cannot take.
    CHECK(why_not(text_with(R"("a\u001fb":1)")).find("key holds") != std::string::npos);
}
