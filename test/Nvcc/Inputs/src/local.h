// The header next to pipeline.cu: `#include "local.h"` must find this one.
#define LOCAL_INCREMENT 1.0f
