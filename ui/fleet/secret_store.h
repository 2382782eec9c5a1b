#pragma once

#include <QObject>
#include <QString>

namespace tokenscope::ui {

// Secrets (bearer tokens, passwords) in the desktop keyring through QtKeychain, under
// the service "<organization>/<application>" so tests never touch the user's entries.
// Where no keyring or secret service answers (CI, offscreen, no D-Bus session), the
// store says so and keeps secrets in this process only: they are lost on exit and
// never fall back to a plain-text file.
class SecretStore : public QObject {
    Q_OBJECT
  public:
    enum class State { Unknown, Available, Unavailable };

    explicit SecretStore(QObject* parent = nullptr);

    // Asynchronous: secretRead(key, secret) follows, with an empty secret when none
    // is stored. The keyring's answer also settles state().
    void read(const QString& key);
    // Kept for the session at once, and in the keyring unless it is unavailable.
    void write(const QString& key, const QString& secret);

    State state() const { return state_; }
    // One sentence for the dialog: where a secret typed now will be kept.
    QString stateText() const;

  signals:
    void secretRead(const QString& key, const QString& secret);
    void stateChanged(tokenscope::ui::SecretStore::State state);

  private:
    void setState(State state, const QString& why = {});
    QString service() const;

    State state_ = State::Unknown;
    QString why_;
};

}  // namespace tokenscope::ui
