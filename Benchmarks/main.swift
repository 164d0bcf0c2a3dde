print("ServiceContainerKitBenchmarks: no cases yet")
