/* iosim/iosim.h — libiosim, iosim's policies, scenarios and SimGrid plugin as a library (docs/library.md):
 * - the policy face (iosim/policy.h): list the policies of the five families, read and set their parameters, call one
 *   decision on caller-owned arrays, register a sharing policy of one's own; no SimGrid engine is ever started;
 * - the scenario face (iosim/scenario.h): load, validate and run a scenario, read its metrics and per-application
 *   results, any number of times per process;
 * - the SimGrid plugin face (iosim/plugin.h): iosim's I/O controller inside any s4u simulation.
 * Build with `pkg-config --cflags --libs iosim`, or CMake's find_package(iosim) and the target iosim::iosim. */
#ifndef IOSIM_IOSIM_H
#define IOSIM_IOSIM_H

#include "iosim/common.h"
#include "iosim/plugin.h"
#include "iosim/policy.h"
#include "iosim/scenario.h"
#include "iosim/version.h"

#endif
