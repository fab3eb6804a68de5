// Expected to fail: Two callers cancelled in turn while a refresh runs end only their own calls
// Keeps the waiting callers' continuations in a list and removes a cancelled one by the position
// it was added at. Once one has left, the others have moved up: cancelling a second caller
// resumes another one, never cancelled, with CancellationError.
import Foundation
import Services

public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  private var waiters: [CheckedContinuation<Credentials, any Error>]?
  private var round = 0

  public init(credentials: Credentials, server: any AuthServer) {
    self.credentials = credentials
    self.server = server
  }

  public func validAccessToken() async throws -> String {
    if waiters == nil, credentials.isValid(at: Date()) { return credentials.accessToken }
    return try await refreshed().accessToken
  }

  public func accessToken(replacing rejected: String) async throws -> String {
    if waiters == nil, rejected != credentials.accessToken { return credentials.accessToken }
    return try await refreshed().accessToken
  }

  private func refreshed() async throws -> Credentials {
    let slot = Slot()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        if Task.isCancelled {
          continuation.resume(throwing: CancellationError())
          return
        }
        if waiters != nil {
          slot.index = waiters!.count
          slot.round = round
          waiters!.append(continuation)
          return
        }
        round += 1
        slot.index = 0
        slot.round = round
        waiters = [continuation]
        let refreshToken = credentials.refreshToken
        Task {
          let result: Result<Credentials, any Error>
          do { result = .success(try await server.refresh(using: refreshToken)) } catch {
            result = .failure(error)
          }
          self.finish(result)
        }
      }
    } onCancel: {
      Task { await self.giveUp(slot) }
    }
  }

  /// A cancelled caller stops waiting; the refresh goes on for the others.
  private func giveUp(_ slot: Slot) {
    guard let index = slot.index, slot.round == round, waiters != nil, index < waiters!.count
    else { return }
    waiters!.remove(at: index).resume(throwing: CancellationError())
    slot.index = nil
  }

  private func finish(_ result: Result<Credentials, any Error>) {
    if case .success(let renewed) = result { credentials = renewed }
    let waiting = waiters ?? []
    waiters = nil
    for waiter in waiting { waiter.resume(with: result) }
  }
}

/// Where a caller's continuation sits in the list; read and written on the actor only.
private final class Slot: @unchecked Sendable {
  var index: Int?
  var round = 0
}
