"""iosim's teaching lab: guided modules on HPC I/O scheduling that students run, change and check in the browser
(`iosim lab`, docs/lab.md). modules: the module files a teacher writes; runner: the simulations (`iosim run` in a
bounded pool); checker: answers against the simulation's own numbers; app: the pages (Flask, served by waitress)."""
