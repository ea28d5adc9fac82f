/*
 * File names: what a name says about its contents.
 */
#ifndef SSP_PATH_H
#define SSP_PATH_H


/* Does the file name ask for zstd? */
int ssp_path_is_zst(const char *path);
/* The base name without directories, a .zst suffix and then its last
 * extension ("logs/client.gem5.log.zst" -> "client.gem5"), malloc'd;
 * NULL when out of memory. */
char *ssp_path_stem(const char *path);

#endif
