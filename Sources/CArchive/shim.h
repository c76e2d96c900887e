#ifndef GALLERYKIT_CARCHIVE_SHIM_H
#define GALLERYKIT_CARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>
#include <sys/file.h>
#include <fcntl.h>

// The AE_IF* file-type macros are casts, which Swift does not import.
static const unsigned int CArchiveFileTypeRegular = AE_IFREG;
static const unsigned int CArchiveFileTypeDirectory = AE_IFDIR;
static const unsigned int CArchiveFileTypeSymbolicLink = AE_IFLNK;

#endif
