#pragma once
#define SCALE_FACTOR 3
