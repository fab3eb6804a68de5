import Dispatch

/// Tells whether code runs on the main actor, without stopping the test when it does not.
///
/// The main actor runs its jobs on the main dispatch queue, on Linux and macOS alike, and on Linux
/// that queue is not always served by the main thread, so `Thread.isMainThread` cannot tell. A
/// value attached to the main queue can: code sees it exactly when it runs as part of that queue.
public enum MainActorProbe {
  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether the caller is running on the main actor.
  public static var isOnMainActor: Bool {
    DispatchQueue.getSpecific(key: key) == true
  }
}
