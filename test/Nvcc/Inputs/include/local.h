// Found through -I only when the source's own folder is not searched first.
#error "include/local.h was found instead of the local.h next to the source"
