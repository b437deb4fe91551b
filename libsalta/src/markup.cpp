#include "markup.h"

#include "salta/text.h"

namespace salta::markup {
namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the valid UTF-8 sequence at text[i] (Utf8Length), or 0 if
// it is not one or is a code point XML does not allow.
size_t SequenceLength(absl::string_view text, size_t i) {
  const size_t n = Utf8Length(text, i);
  // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not characters XML allows.
  if (n == 3 && text.substr(i, 2) == "\xEF\xBF" &&
      (static_cast<unsigned char>(text[i + 2]) & 0xFE) == 0xBE)
    return 0;
  return n;
}

}  // namespace

std::string ValidText(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t n = SequenceLength(text, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    const unsigned char c = text[i];
    if (n == 1 && c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      out += kReplacement;
    } else if (n == 1 && c == 0x7F) {
      out += kReplacement;
    } else {
      out.append(text.data() + i, n);
    }
    i += n;
  }
  return out;
}

std::string Escape(absl::string_view text) {
  const std::string valid = ValidText(text);
  std::string out;
  out.reserve(valid.size());
  for (char c : valid) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace salta::markup
