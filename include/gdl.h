/*
 * gdl.h: the public API of gdlc.
 */
#ifndef GDL_H
#define GDL_H

#ifdef __cplusplus
extern "C" {
#endif

#define GDL_VERSION "0.1.0"

/* The library's version, "MAJOR.MINOR.PATCH". */
const char *gdl_version(void);

#ifdef __cplusplus
}
#endif

#endif
