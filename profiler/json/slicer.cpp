#include "slicer.h"

#include "reader.h"
#include "syntax_error.h"

namespace tokenscope::json {
namespace {}  // namespace

ObjectSlicer::ObjectSlicer(std::string array_key, std::size_t slice_bytes)
    : key_(std::move(array_key)), slice_bytes_(slice_bytes == 0 ? 1 : slice_bytes) {}

void ObjectSlicer::feed(std::string_view chunk) {
    buf_.append(chunk);
}

// The scan tracks depth, not which bracket opened it: an earlier error inside the
// current part (a ']' closing a '{') comes first, as reading the document whole
// would report it.
void ObjectSlicer::error(std::size_t i, const std::string& problem) const {
    const bool elements =
        state_ == State::Elements || state_ == State::ElementValue || state_ == State::AfterElement;
    if (start_ < i) {
        std::string text(1, elements ? '[' : '{');
        text.append(buf_, start_, i - start_);
        if (auto found = diagnose(text, at(start_) - 1); found && !found->at_end()) throw *found;
    }
    throw SyntaxError(at(i), problem, false);
}

bool ObjectSlicer::skip_space() {
    while (p_ < buf_.size() && is_space(buf_[p_])) ++p_;
    return p_ < buf_.size();
}

ObjectSlicer::Part ObjectSlicer::emit(Kind kind, char open, std::size_t from, std::size_t to,
                                      char close) {
    part_.clear();
    part_.reserve(to - from + 2 + kPadding);
    part_ += open;
    part_.append(buf_, from, to - from);
    if (close != 0) part_ += close;
    return {kind, &part_, at(from) - 1};
}

// Drops the data no part needs any more, so the buffer holds one part at most.
void ObjectSlicer::drop_consumed() {
    const bool between =
        state_ == State::Start || state_ == State::AfterArray || state_ == State::Trailing;
    const std::size_t keep = between ? p_ : start_;
    if (keep == 0) return;
    buf_.erase(0, keep);
    base_ += keep;
    p_ -= keep;
    start_ -= keep;
}

bool ObjectSlicer::scan_value() {
    if (depth_ == 0 && !in_string_ && !scalar_) {
        const char c = buf_[p_];
        if (c == ',' || c == ']' || c == '}')
            error(p_, std::string("unexpected character '") + c + "'");
        ++p_;
        if (c == '{' || c == '[')
            depth_ = 1;
        else if (c == '"')
            in_string_ = true;
        else
            scalar_ = true;
    }
    while (p_ < buf_.size()) {
        const char c = buf_[p_];
        if (in_string_) {
            ++p_;
            if (escaped_) {
                escaped_ = false;
            } else if (c == '\\') {
                escaped_ = true;
            } else if (c == '"') {
                in_string_ = false;
                if (depth_ == 0) return true;
            }
            continue;
        }
        if (scalar_) {
            if (is_space(c) || c == ',' || c == ']' || c == '}' || c == '{' || c == '[' ||
                c == '"' || c == ':') {
                scalar_ = false;
                return true;
            }
            ++p_;
            continue;
        }
        ++p_;
        if (c == '"') {
            in_string_ = true;
        } else if (c == '{' || c == '[') {
            ++depth_;
        } else if (c == '}' || c == ']') {
            if (--depth_ == 0) return true;
        }
    }
    if (scalar_ && finished_) {  // a number or literal that ends the data
        scalar_ = false;
        return true;
    }
    return false;
}

ObjectSlicer::Part ObjectSlicer::next() {
    auto need_data = [&]() -> Part {
        if (!finished_) {
            drop_consumed();
            return {};
        }
        switch (state_) {
            case State::Trailing:
                return {Kind::End, nullptr, at(p_)};
            case State::Start:
            case State::AfterArray:
            case State::ArrayClosing:
                return emit(Kind::Broken, '{', p_, buf_.size(), 0);
            case State::Elements:
            case State::ElementValue:
            case State::AfterElement:
                return emit(Kind::Broken, '[', start_, buf_.size(), 0);
            default:
                return emit(Kind::Broken, '{', start_, buf_.size(), 0);
        }
    };
    while (true) {
        switch (state_) {
            case State::Start:
                if (!skip_space()) return need_data();
                ++p_;  // the '{' callers checked
                state_ = State::Key;
                first_ = true;
                start_ = p_;
                break;
            case State::Key: {
                if (!skip_space()) return need_data();
                const char c = buf_[p_];
                if (c == '}' && first_) {
                    ++p_;
                    state_ = State::Trailing;
                    break;
                }
                if (c != '"') error(p_, "expected a member name");
                start_ = p_;
                std::size_t q = p_ + 1;
                bool escaped = false;
                for (; q < buf_.size(); ++q) {
                    if (escaped)
                        escaped = false;
                    else if (buf_[q] == '\\')
                        escaped = true;
                    else if (buf_[q] == '"')
                        break;
                }
                if (q == buf_.size()) return need_data();
                is_array_key_ = std::string_view(buf_).substr(p_ + 1, q - p_ - 1) == key_;
                p_ = q + 1;
                state_ = State::Colon;
                break;
            }
            case State::Colon:
                if (!skip_space()) return need_data();
                if (buf_[p_] != ':')
                    error(p_, std::string("expected ':', found '") + buf_[p_] + "'");
                ++p_;
                state_ = State::Value;
                break;
            case State::Value:
                if (!skip_space()) return need_data();
                if (is_array_key_ && buf_[p_] == '[') {
                    ++p_;
                    start_ = p_;
                    first_ = true;
                    state_ = State::Elements;
                    break;
                }
                state_ = State::MemberValue;
                break;
            case State::MemberValue:
                if (!scan_value()) return need_data();
                state_ = State::AfterMember;
                break;
            case State::AfterMember: {
                if (!skip_space()) return need_data();
                const char c = buf_[p_];
                if (c != ',' && c != '}')
                    error(p_, std::string("expected ',' or '}', found '") + c + "'");
                Part part = emit(Kind::Member, '{', start_, p_, '}');
                ++p_;
                first_ = false;
                state_ = c == ',' ? State::Key : State::Trailing;
                start_ = p_;
                return part;
            }
            case State::Elements:
                if (!skip_space()) return need_data();
                if (buf_[p_] == ']' && first_) {
                    ++p_;
                    state_ = State::AfterArray;
                    return {Kind::ArrayEnd, nullptr, at(p_)};
                }
                state_ = State::ElementValue;
                break;
            case State::ElementValue:
                if (!scan_value()) return need_data();
                state_ = State::AfterElement;
                break;
            case State::AfterElement: {
                if (!skip_space()) return need_data();
                const char c = buf_[p_];
                if (c == ',') {
                    first_ = false;
                    state_ = State::Elements;
                    ++p_;
                    if (p_ - start_ >= slice_bytes_) {
                        Part part = emit(Kind::Elements, '[', start_, p_ - 1, ']');
                        start_ = p_;
                        return part;
                    }
                    break;
                }
                if (c != ']') error(p_, std::string("expected ',' or ']', found '") + c + "'");
                Part part = emit(Kind::Elements, '[', start_, p_, ']');
                ++p_;
                state_ = State::ArrayClosing;  // the next call reports the array's end
                return part;
            }
            case State::ArrayClosing:
                state_ = State::AfterArray;
                return {Kind::ArrayEnd, nullptr, at(p_)};
            case State::AfterArray: {
                if (!skip_space()) return need_data();
                const char c = buf_[p_];
                if (c != ',' && c != '}')
                    error(p_, std::string("expected ',' or '}', found '") + c + "'");
                ++p_;
                first_ = false;
                state_ = c == ',' ? State::Key : State::Trailing;
                start_ = p_;
                break;
            }
            case State::Trailing:
                if (!skip_space()) return need_data();
                error(p_, "unexpected data after the document");
        }
    }
}

}  // namespace tokenscope::json
