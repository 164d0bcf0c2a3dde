import Foundation

#if canImport(ObjectiveC)
/// Where a wrapper writes the `NSError` of a failed get: `NSErrorPointer` on Apple platforms.
///
/// ```swift
/// var error: NSError?
/// let service = provider.getServiceAndReturnError(&error)
/// ```
public typealias ServiceErrorPointer = NSErrorPointer
#else
/// Where a wrapper writes the `NSError` of a failed get: an `NSError?` variable passed as
/// `&error`, as `NSErrorPointer` is written on Apple platforms.
///
/// ```swift
/// var error: NSError?
/// let service = provider.getServiceAndReturnError(&error)
/// ```
public typealias ServiceErrorPointer = UnsafeMutablePointer<NSError?>?
#endif
