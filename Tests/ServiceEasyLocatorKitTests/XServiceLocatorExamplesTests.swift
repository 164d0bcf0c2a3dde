import LocatorTestSupport
import Testing
import ServiceEasyLocatorKit

// The examples of the XServiceLocator README, written with ServiceEasyLocator: `register` is
// `addService`, `resolve` is `tryService`, a "dependency" resolver is the parent, and an
// array of resolvers is a parent chain.

private protocol Shape {
    var name: String { get }
}

private final class Circle: Shape {
    let name = "Circle"
    let radius: Double
    init(radius: Double) { self.radius = radius }
}

private final class Rectangle: Shape {
    let name = "Rectangle"
    let width: Double
    let height: Double
    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

private struct Drawing {
    let shape: Shape
}

@Suite("XServiceLocator examples")
struct XServiceLocatorExamplesTests {
    @Test func basicSteps() throws {
        let container = ServiceEasyLocator()
        container.addService(10 as Int)
        container.addService { 20 as Double }

        let intValue = try container.tryService(serviceType: Int.self)
        let doubleValue: Double = try container.tryService()
        #expect(intValue == 10)
        #expect(doubleValue == 20)
    }

    @Test func customObjects() throws {
        let container = ServiceEasyLocator()
        container.addService(Circle(radius: 10) as Shape)
        container.addService { Circle(radius: 20) }
        container.addService(Rectangle(width: 30, height: 15))
        container.addService {
            let shape = Rectangle(width: 10, height: 5)
            return Drawing(shape: shape)
        }

        let rectangle = try container.tryService(serviceType: Rectangle.self)
        let shape = try container.tryService(serviceType: Shape.self)
        let circle: Circle = try container.tryService()
        let drawing: Drawing = try container.tryService()

        #expect(rectangle.name == "Rectangle")
        #expect(shape.name == "Circle")
        #expect(circle.name == "Circle")
        #expect(drawing.shape.name == "Rectangle")
        #expect(rectangle.width == 30 && rectangle.height == 15)
        #expect((shape as? Circle)?.radius == 10)
        #expect(circle.radius == 20)
    }

    @Test func registeredInstancesForLaterRegistrations() throws {
        let container = ServiceEasyLocator()
        container.addService(30 as Double)
        container.addService(Rectangle(width: 10, height: 20))
        container.addService { [unowned container] in Circle(radius: try container.tryService()) }

        let circle: Circle = try container.tryService()
        #expect(circle.radius == 30)
    }

    @Test func dependencyResolver() throws {
        let dependency = ServiceEasyLocator()
        dependency.addService(100 as Double)
        dependency.addService(Rectangle(width: 10, height: 20) as Shape)

        let container = ServiceEasyLocator(parent: dependency)
        container.addService(Rectangle(width: 15, height: 7.5))

        let shapeRectangle = try #require(try container.tryService(serviceType: Shape.self) as? Rectangle)
        let rectangle: Rectangle = try container.tryService()
        let doubleValue: Double = try container.tryService()

        #expect(shapeRectangle.width == 10 && shapeRectangle.height == 20)
        #expect(rectangle.width == 15 && rectangle.height == 7.5)
        #expect(doubleValue == 100)
    }

    @Test func arrayOfResolvers() throws {
        let container = ServiceEasyLocator()
        container.addService(10 as Int)
        container.addService(20 as Double)

        let container1 = ServiceEasyLocator()
        container1.addService(30 as Float)
        container1.addService(50 as Double)

        // [container, container1]: the first that has the service answers.
        container.setParent(container1)

        #expect(try container.tryService(serviceType: Int.self) == 10)
        #expect(try container.tryService(serviceType: Float.self) == 30)
        #expect(try container.tryService(serviceType: Double.self) == 20)
        #expect(throws: ServiceLocatorError.self) { try container.tryService(serviceType: String.self) }
    }
}
