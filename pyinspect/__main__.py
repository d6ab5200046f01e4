from pyinspect.cli import main

main()
