/* Pango over cairo, with fontconfig and FreeType beneath it (the include
 * folders come from pkg-config's pangocairo): text stamps outside the standard
 * fonts are shaped by Pango (HarfBuzz: right-to-left, combining marks, CJK),
 * their fonts found by fontconfig (a family name or a font file), and drawn
 * onto a cairo PDF surface, which embeds each font as a subset with a
 * ToUnicode map (PDFEngine/Text/TextPicture.swift). */
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
#include <cairo.h>
#include <cairo-pdf.h>
