# v96: two calls on the machine v95 left warm (commands as given to the device tool, one line each):
# 1. S's whole GPU suite, each case timed, S's every default cubin (build/cx13, compiled here):
#    export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_S; (unpack cx13);
#    cp build/cx13/S/deepselect /tmp/c100/build/deepselect;
#    timeout 290 build/cx13/S/deepselect_tests -tc='gpu: *' --duration=true > $w/gpu_tests_S.log 2>&1
# 2. racecheck on the sanitizer subset:
#    timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 build/cx13/S/deepselect_tests \
#      -tc='gpu: sanitizer subset' > $w/racecheck_S.log 2>&1
