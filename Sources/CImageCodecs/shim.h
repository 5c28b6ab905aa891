/* libjpeg-turbo and libtiff as their own headers declare them (pkg-config's
 * libtiff-4 gives the include folder; jpeglib.h needs stdio.h first). Only the
 * ImageCodecs C target includes them: libjpeg reports errors by longjmp, which
 * Swift cannot catch. */
#include <stdio.h>
#include <jpeglib.h>
#include <tiffio.h>
