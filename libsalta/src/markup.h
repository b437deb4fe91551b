// Text made safe to embed in XML, SVG and HTML (internal to libsalta).
#pragma once

#include <string>

#include "absl/strings/string_view.h"

namespace salta::markup {

// The text as valid UTF-8 that XML 1.0 allows: each invalid byte sequence
// and each control character other than tab, line feed and carriage return
// becomes U+FFFD.
std::string ValidText(absl::string_view text);

// ValidText with & < > " ' as character references: safe in element content
// and in quoted attribute values of XML and HTML.
std::string Escape(absl::string_view text);

}  // namespace salta::markup
