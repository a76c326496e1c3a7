# man/: manual pages.
dist_man_MANS += man/timeit.1
