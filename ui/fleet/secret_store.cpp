#include "secret_store.h"

#include <qt6keychain/keychain.h>

#include <QCoreApplication>
#include <QHash>

namespace tokenscope::ui {
namespace {

// The session's secrets, shared by every dialog of the process: the fallback when
// there is no keyring, and a cache so a second dialog need not ask the keyring again.
QHash<QString, QString>& session_secrets() {
    static QHash<QString, QString> secrets;
    return secrets;
}

bool keyring_answered(QKeychain::Error e) {
    return e == QKeychain::NoError || e == QKeychain::EntryNotFound;
}

}  // namespace

SecretStore::SecretStore(QObject* parent) : QObject(parent) {}

QString SecretStore::service() const {
    return QCoreApplication::organizationName() + QLatin1Char('/') +
           QCoreApplication::applicationName();
}

void SecretStore::read(const QString& key) {
    const auto cached = session_secrets().constFind(key);
    if (cached != session_secrets().constEnd() || state_ == State::Unavailable) {
        const QString secret = cached != session_secrets().constEnd() ? *cached : QString();
        // Queued, like the keyring's answer, so callers see one behaviour.
        QMetaObject::invokeMethod(
            this, [this, key, secret] { emit secretRead(key, secret); }, Qt::QueuedConnection);
        if (state_ != State::Unknown) return;
    }
    auto* job = new QKeychain::ReadPasswordJob(service(), this);
    job->setAutoDelete(true);
    job->setKey(key);
    const bool answer = cached == session_secrets().constEnd();
    connect(job, &QKeychain::Job::finished, this, [this, job, key, answer] {
        const bool ok = keyring_answered(job->error());
        setState(ok ? State::Available : State::Unavailable, job->errorString());
        if (!answer) return;
        QString secret = job->error() == QKeychain::NoError ? job->textData() : QString();
        if (!secret.isEmpty()) session_secrets().insert(key, secret);
        emit secretRead(key, secret);
    });
    job->start();
}

void SecretStore::write(const QString& key, const QString& secret) {
    if (key.isEmpty()) return;
    session_secrets().insert(key, secret);
    if (state_ == State::Unavailable) return;
    auto* job = new QKeychain::WritePasswordJob(service(), this);
    job->setAutoDelete(true);
    job->setKey(key);
    job->setTextData(secret);
    connect(job, &QKeychain::Job::finished, this, [this, job] {
        setState(job->error() == QKeychain::NoError ? State::Available : State::Unavailable,
                 job->errorString());
    });
    job->start();
}

void SecretStore::setState(State state, const QString& why) {
    if (state == state_) return;
    state_ = state;
    why_ = state == State::Unavailable ? why : QString();
    emit stateChanged(state);
}

QString SecretStore::stateText() const {
    switch (state_) {
        case State::Unknown:
            return tr("Looking for the desktop keyring…");
        case State::Available:
            return tr("Secrets are kept in the desktop keyring.");
        case State::Unavailable:
            return tr("No keyring or secret service available (%1): the secret is kept for this "
                      "session only and never written to disk.")
                .arg(why_.isEmpty() ? tr("no answer") : why_);
    }
    return {};
}

}  // namespace tokenscope::ui
