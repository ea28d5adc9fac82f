/*
 * span2html's viewer, compiled in (base/embed.h): the page, its style and
 * its script (lib/sink/html/), and the Content-Security-Policy source of
 * the inline script and style, 'sha256-<base64>', computed by the build
 * from the same files (scripts/csphash.sh, which also checks each against
 * the text compiled in).
 */
#ifndef SSP_HTML_VIEWER_H
#define SSP_HTML_VIEWER_H

#include "base/embed.h"

SSP_EMBED(ssp_html_viewer_html, "lib/sink/html/viewer.html");
SSP_EMBED(ssp_html_viewer_css, "lib/sink/html/viewer.css");
SSP_EMBED(ssp_html_viewer_js, "lib/sink/html/viewer.js");
SSP_EMBED(ssp_html_viewer_css_csp, "$(BUILD)/gen/lib/sink/html/viewer.css.csp");
SSP_EMBED(ssp_html_viewer_js_csp, "$(BUILD)/gen/lib/sink/html/viewer.js.csp");

#endif
