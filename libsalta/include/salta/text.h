// Text from the input, checked and quoted: UTF-8 validity, and escaping what
// is not valid UTF-8 so that messages quoting the input are valid UTF-8 on
// one line whatever the input was.
#pragma once

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace salta {

// The length of the valid UTF-8 sequence of a code point starting at s[i]
// (1 for ASCII), or 0 if the bytes there are not valid UTF-8 (a stray
// continuation byte, a truncated or overlong sequence, a surrogate, beyond
// U+10FFFF). i < s.size().
size_t Utf8Length(absl::string_view s, size_t i);

// The text with every byte that is not part of valid UTF-8, and every
// control character (tab and line breaks included), written as \xHH; the
// rest unchanged. Applying it twice changes nothing more.
std::string EscapeForMessage(absl::string_view text);

// A whole number of the input (a tag's, a field's, a rank) written in
// decimal digits alone, at most nine: no sign, space or other base, so
// that "+1", " 1" and "1 " are not numbers. Leading zeros are read as
// decimal ("08" is 8), as the tools' flags read them.
bool ParseDigits(absl::string_view text, int& value);

}  // namespace salta
