// Validates the README's container and prints what docs/diagnostics.md shows:
//
//     swift run DiagnosticsExample           # the validation report
//     swift run DiagnosticsExample dot       # the graph in Graphviz DOT (docs/diagnostics-graph.dot)
//     swift run DiagnosticsExample mermaid   # the graph as a Mermaid flowchart
//
// .ci/render-graph draws docs/diagnostics-graph.svg from the DOT output.
import ServiceContainerKit

let report = ServiceValidator.validate(building: Services.makeDefault)
switch CommandLine.arguments.dropFirst().first {
case "dot":
    print(report.graph.dot(), terminator: "")
case "mermaid":
    print(report.graph.mermaid(), terminator: "")
default:
    print(report)
}
